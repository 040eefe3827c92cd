CALL `lakehouse`.system.rewrite_position_delete_files(
  table => '`sales`.`events`',
  where => '`event_ts` >= TIMESTAMP \'2024-01-31 10:00:00.000000Z\' AND `event_ts` < TIMESTAMP \'2024-01-31 11:00:00.000000Z\'',
  options => map('rewrite-all', 'true', 'partial-progress.enabled', 'true'));
