CALL `lakehouse`.system.remove_orphan_files(
  table => '`sales`.`events`',
  older_than => TIMESTAMP '2026-01-12 12:00:00.000000Z');
