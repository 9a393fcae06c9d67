/**
 * The data of any event, passed on as it came: webhooks deliver what the producer published
 * (its schema is in the catalogue), so nothing is required of it here beyond being an object.
 */
export class AnyEventPayload {}
