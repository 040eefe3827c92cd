SET SESSION "lakehouse".expire_snapshots_min_retention = '604800s';

ALTER TABLE "lakehouse"."sales"."events" EXECUTE expire_snapshots(retention_threshold => '604800s');
