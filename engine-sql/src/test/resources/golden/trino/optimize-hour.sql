SET SESSION "lakehouse".target_max_file_size = '536870912B';

ALTER TABLE "lakehouse"."sales"."events" EXECUTE optimize(file_size_threshold => '402653184B')
WHERE "event_ts" >= TIMESTAMP '2024-01-31 10:00:00.000000 UTC' AND "event_ts" < TIMESTAMP '2024-01-31 11:00:00.000000 UTC';
