CALL `lakehouse`.system.rewrite_data_files(
  table => '`sales`.`events`',
  where => '(`event_date` >= DATE \'2024-01-01\' AND `event_date` < DATE \'2025-01-01\') OR (`event_date` >= DATE \'2025-01-01\' AND `event_date` < DATE \'2026-01-01\')',
  options => map('delete-file-threshold', '1', 'min-input-files', '1', 'remove-dangling-deletes', 'true', 'partial-progress.enabled', 'true', 'use-starting-sequence-number', 'true', 'target-file-size-bytes', '536870912'));
