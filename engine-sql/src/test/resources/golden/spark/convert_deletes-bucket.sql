CALL `lakehouse`.system.rewrite_data_files(
  table => '`sales`.`events`',
  where => '(`lakehouse`.system.bucket(16, `id`) = 3) OR (`lakehouse`.system.bucket(16, `id`) = 7)',
  options => map('delete-file-threshold', '1', 'min-input-files', '1', 'remove-dangling-deletes', 'true', 'partial-progress.enabled', 'true', 'use-starting-sequence-number', 'true', 'target-file-size-bytes', '536870912'));
