CALL `lakehouse`.system.compute_table_stats(
  table => '`sales`.`events`');
