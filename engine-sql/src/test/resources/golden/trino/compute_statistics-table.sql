ANALYZE "lakehouse"."sales"."events";
