CALL `lakehouse`.system.rewrite_position_delete_files(
  table => '`sales`.`events`',
  where => '(`lakehouse`.system.bucket(16, `id`) = 3) OR (`lakehouse`.system.bucket(16, `id`) = 7)',
  options => map('rewrite-all', 'true', 'partial-progress.enabled', 'true'));
