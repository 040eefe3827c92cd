ALTER TABLE "lakehouse"."sales"."events" EXECUTE remove_orphan_files(retention_threshold => '259200s');
