CALL `lakehouse`.system.rewrite_data_files(
  table => '`sales`.`events`',
  where => '`local_ts` >= TIMESTAMP_NTZ \'2024-01-01 00:00:00.000000\' AND `local_ts` < TIMESTAMP_NTZ \'2024-02-01 00:00:00.000000\'',
  options => map('delete-file-threshold', '1', 'min-input-files', '1', 'remove-dangling-deletes', 'true', 'partial-progress.enabled', 'true', 'use-starting-sequence-number', 'true', 'target-file-size-bytes', '536870912'));
