package dev.jetsink.internal.event;

/**
 * The members of a record or entry {@link DataWriter} reads: where, by which name, the spot an
 * object member opens (else a value), and whether it may be of any type: the fields only the
 * opt-in formats read ({@link FormatFields}) and {@code eventSource}; any other must be a string.
 */
enum ReadField {
    EVENT_NAME(DataWriter.Spot.RECORD, "eventName", null, false),
    EVENT_SOURCE(DataWriter.Spot.RECORD, "eventSource", null, true),
    AWS_REGION(DataWriter.Spot.RECORD, "awsRegion", null, true),
    EVENT_TIME(DataWriter.Spot.RECORD, "eventTime", null, true),
    S3(DataWriter.Spot.RECORD, "s3", DataWriter.Spot.S3, false),
    BUCKET(DataWriter.Spot.S3, "bucket", DataWriter.Spot.BUCKET, false),
    OBJECT(DataWriter.Spot.S3, "object", DataWriter.Spot.OBJECT, false),
    BUCKET_NAME(DataWriter.Spot.BUCKET, "name", null, false),
    KEY(DataWriter.Spot.OBJECT, "key", null, false),
    CONTENT_TYPE(DataWriter.Spot.OBJECT, "contentType", null, false),
    RESPONSE_ELEMENTS(DataWriter.Spot.RECORD, "responseElements", DataWriter.Spot.RESPONSE, true),
    REQUEST_ID(DataWriter.Spot.RESPONSE, "x-amz-request-id", null, true),
    ID_2(DataWriter.Spot.RESPONSE, "x-amz-id-2", null, true),
    API(DataWriter.Spot.ENTRY, "api", DataWriter.Spot.API, false),
    EVENT(DataWriter.Spot.ENTRY, "event", null, false),
    ENTRY_REQUEST_ID(DataWriter.Spot.ENTRY, "requestID", null, true),
    DEPLOYMENT_ID(DataWriter.Spot.ENTRY, "deploymentid", null, true),
    REQUEST_HOST(DataWriter.Spot.ENTRY, "requestHost", null, true),
    ENTRY_TIME(DataWriter.Spot.ENTRY, "time", null, true),
    REQUEST_HEADER(DataWriter.Spot.ENTRY, "requestHeader", DataWriter.Spot.HEADERS, false),
    RESPONSE_HEADER(DataWriter.Spot.ENTRY, "responseHeader", DataWriter.Spot.HEADERS, false),
    REQUEST_QUERY(DataWriter.Spot.ENTRY, "requestQuery", DataWriter.Spot.QUERY, false),
    API_NAME(DataWriter.Spot.API, "name", null, false),
    API_BUCKET(DataWriter.Spot.API, "bucket", null, false),
    API_OBJECT(DataWriter.Spot.API, "object", null, false);

    static final ReadField[] ALL = values();
    final DataWriter.Spot in;
    final String name;
    final DataWriter.Spot opens;
    final boolean anyType;

    ReadField(DataWriter.Spot in, String name, DataWriter.Spot opens, boolean anyType) {
        this.in = in;
        this.name = name;
        this.opens = opens;
        this.anyType = anyType;
    }

    static ReadField at(DataWriter.Spot spot, String name) {
        for (ReadField f : ALL) {
            if (f.in == spot && f.name.equals(name)) {
                return f;
            }
        }
        return null;
    }

    boolean isTime() {
        return this == EVENT_TIME || this == ENTRY_TIME;
    }
}

