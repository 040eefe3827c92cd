CALL `lakehouse`.system.rewrite_position_delete_files(
  table => '`sales`.`events`',
  where => '(`category` = \'c1\') OR (`category` = \'o\\\'neil\') OR (`category` IS NULL)',
  options => map('rewrite-all', 'true', 'partial-progress.enabled', 'true'));
