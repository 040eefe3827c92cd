SET SESSION "lakehouse".remove_orphan_files_min_retention = '259200s';

ALTER TABLE "lakehouse"."sales"."events" EXECUTE remove_orphan_files(retention_threshold => '259200s');
