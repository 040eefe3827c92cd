SET SESSION "lakehouse".target_max_file_size = '536870912B';

ALTER TABLE "lakehouse"."sales"."events" EXECUTE optimize(file_size_threshold => '402653184B')
WHERE "local_ts" >= TIMESTAMP '2024-01-01 00:00:00.000000' AND "local_ts" < TIMESTAMP '2024-02-01 00:00:00.000000';
