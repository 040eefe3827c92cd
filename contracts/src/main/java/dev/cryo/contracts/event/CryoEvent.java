package dev.cryo.contracts.event;

import dev.cryo.contracts.TableId;

/**
 * Every Cryo event is about one table: its id is the Kafka key and the CloudEvents subject.
 * Payloads of a {@code .v1} type may only gain optional fields.
 */
public sealed interface CryoEvent
        permits TableChanged, TableScanned, TableGraded, GradeChanged, MaintenancePlanned,
        JobAdmitted, JobRevoked, JobDeferred, JobResult {

    TableId table();
}
