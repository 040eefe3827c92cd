CALL `lakehouse`.system.rewrite_position_delete_files(
  table => '`sales`.`events`',
  where => '`local_ts` >= TIMESTAMP_NTZ \'2024-01-01 00:00:00.000000\' AND `local_ts` < TIMESTAMP_NTZ \'2024-02-01 00:00:00.000000\'',
  options => map('rewrite-all', 'true', 'partial-progress.enabled', 'true'));
