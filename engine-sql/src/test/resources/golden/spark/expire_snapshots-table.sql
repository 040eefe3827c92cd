CALL `lakehouse`.system.expire_snapshots(
  table => '`sales`.`events`',
  older_than => TIMESTAMP '2026-01-08 12:00:00.000000Z');
