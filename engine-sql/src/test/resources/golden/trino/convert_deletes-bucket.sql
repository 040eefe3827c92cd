SET SESSION "lakehouse".target_max_file_size = '536870912B';

ALTER TABLE "lakehouse"."sales"."events" EXECUTE optimize(file_size_threshold => '402653184B')
WHERE "$partition" IN ('id_bucket=3', 'id_bucket=7');
