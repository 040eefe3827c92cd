CALL `lakehouse`.system.rewrite_data_files(
  table => '`sales`.`events`',
  where => '`event_ts` >= TIMESTAMP \'2024-01-31 10:00:00.000000Z\' AND `event_ts` < TIMESTAMP \'2024-01-31 11:00:00.000000Z\'',
  options => map('delete-file-threshold', '1', 'min-input-files', '1', 'remove-dangling-deletes', 'true', 'partial-progress.enabled', 'true', 'use-starting-sequence-number', 'true', 'target-file-size-bytes', '536870912'));
