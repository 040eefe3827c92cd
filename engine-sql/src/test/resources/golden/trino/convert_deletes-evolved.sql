SET SESSION "lakehouse".target_max_file_size = '536870912B';

ALTER TABLE "lakehouse"."sales"."events" EXECUTE optimize(file_size_threshold => '402653184B')
WHERE "$partition" IN ('event_ts_day=2024-01-31', 'event_ts_hour=2024-02-01-10');
