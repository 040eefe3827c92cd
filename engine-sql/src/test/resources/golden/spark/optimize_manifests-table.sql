CALL `lakehouse`.system.rewrite_manifests(
  table => '`sales`.`events`');
