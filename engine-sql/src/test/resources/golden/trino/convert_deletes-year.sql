SET SESSION "lakehouse".target_max_file_size = '536870912B';

ALTER TABLE "lakehouse"."sales"."events" EXECUTE optimize(file_size_threshold => '402653184B')
WHERE ("event_date" >= DATE '2024-01-01' AND "event_date" < DATE '2025-01-01')
   OR ("event_date" >= DATE '2025-01-01' AND "event_date" < DATE '2026-01-01');
