ALTER TABLE "lakehouse"."sales"."events" EXECUTE expire_snapshots(retention_threshold => '604800s');
