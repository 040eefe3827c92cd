CALL `lakehouse`.system.rewrite_position_delete_files(
  table => '`sales`.`events`',
  where => '(`lakehouse`.system.truncate(4, `category`) = \'abcd\') OR (`lakehouse`.system.truncate(4, `category`) = \'ab\')',
  options => map('rewrite-all', 'true', 'partial-progress.enabled', 'true'));
