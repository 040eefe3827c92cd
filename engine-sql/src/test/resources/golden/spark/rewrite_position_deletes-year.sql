CALL `lakehouse`.system.rewrite_position_delete_files(
  table => '`sales`.`events`',
  where => '(`event_date` >= DATE \'2024-01-01\' AND `event_date` < DATE \'2025-01-01\') OR (`event_date` >= DATE \'2025-01-01\' AND `event_date` < DATE \'2026-01-01\')',
  options => map('rewrite-all', 'true', 'partial-progress.enabled', 'true'));
