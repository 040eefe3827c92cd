ALTER TABLE "lakehouse"."sales"."events" EXECUTE optimize_manifests;
