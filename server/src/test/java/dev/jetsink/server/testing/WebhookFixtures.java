package dev.jetsink.server.testing;

/**
 * Request bodies shaped like those MinIO and RustFS webhook targets POST (FORMATS.md), written
 * for these tests.
 */
public final class WebhookFixtures {

    private WebhookFixtures() {
    }

    /** One S3 event record, as in a {@code Records} array. */
    public static String record(String eventName, String bucket, String encodedKey, int n) {
        return """
            {"eventVersion":"2.0","eventSource":"minio:s3","awsRegion":"","eventTime":"2026-12-02T10:00:0%dZ",\
            "eventName":"%s","userIdentity":{"principalId":"minioadmin"},\
            "requestParameters":{"principalId":"minioadmin","region":"","sourceIPAddress":"10.0.0.7"},\
            "responseElements":{"x-amz-id-2":"dd9025bab4ad464b049177c95eb6ebf374d3b3fd1af9251148b658df7ac2e3e8",\
            "x-amz-request-id":"1805F5B3A6D1B2C%d","x-minio-deployment-id":"0f9a3c1e","x-minio-origin-endpoint":"http://10.0.0.2:9000"},\
            "s3":{"s3SchemaVersion":"1.0","configurationId":"Config","bucket":{"name":"%s",\
            "ownerIdentity":{"principalId":"minioadmin"},"arn":"arn:aws:s3:::%s"},\
            "object":{"key":"%s","size":1024,"eTag":"9b2cf535f27731c974343645a3985328","contentType":"image/jpeg",\
            "userMetadata":{"content-type":"image/jpeg"},"sequencer":"1805F5B3A6F0000%d"}},\
            "source":{"host":"10.0.0.7","port":"","userAgent":"MinIO (linux; amd64) minio-go/v7.0.90 mc/RELEASE.2025"}}\
            """.formatted(n % 10, eventName, n % 10, bucket, bucket, encodedKey, n % 10);
    }

    /** The webhook form: {@code {"EventName","Key","Records":[...]}} with the decoded key. */
    public static String webhook(String eventName, String bucket, String decodedKey, String encodedKey, int n) {
        return "{\"EventName\":\"" + eventName + "\",\"Key\":\"" + bucket + "/" + decodedKey + "\",\"Records\":["
            + record(eventName, bucket, encodedKey, n) + "]}";
    }

    public static String putPhoto(int n) {
        return webhook("s3:ObjectCreated:Put", "photos", "my photo " + n + ".jpg", "my+photo+" + n + ".jpg", n);
    }

    /** A webhook body holding two records (RustFS batches several into one POST). */
    public static String twoRecords() {
        return "{\"EventName\":\"s3:ObjectRemoved:Delete\",\"Key\":\"photos/a.jpg\",\"Records\":["
            + record("s3:ObjectRemoved:Delete", "photos", "a.jpg", 1) + ","
            + record("s3:ObjectRemoved:Delete", "photos", "b.jpg", 2) + "]}";
    }

    /** One audit entry as a store posts it, with a signed Authorization header to be redacted. */
    public static String auditEntry(int n) {
        return """
            {"version":"1","deploymentid":"0f9a3c1e-5b7d-4e2a-9c1f-2d3e4f5a6b7c","siteName":"","time":"2026-12-02T10:00:0%dZ",\
            "event":"","trigger":"incoming","api":{"name":"PutObject","bucket":"photos","object":"obj-%d.jpg",\
            "status":"OK","statusCode":200,"rx":1024,"tx":0,"timeToResponse":"2100000ns","timeToResponseInNS":"2100000"},\
            "remotehost":"10.0.0.7","requestID":"1805F5B3A6D1B2C%d","userAgent":"MinIO (linux; amd64) minio-go/v7.0.90",\
            "requestPath":"/photos/obj-%d.jpg","requestHost":"10.0.0.2:9000",\
            "requestHeader":{"Authorization":"AWS4-HMAC-SHA256 Credential=minioadmin/20261202/us-east-1/s3/aws4_request",\
            "Content-Type":"image/jpeg"},"responseHeader":{"ETag":"\\"9b2cf535f27731c974343645a3985328\\""},\
            "accessKey":"minioadmin"}\
            """.formatted(n % 10, n, n % 10, n);
    }

    /**
     * A RustFS webhook body: event version 2.1, {@code rustfs:s3} source, a multipart completion
     * with user metadata and a RustFS-only field the envelope must carry through unchanged.
     */
    public static String rustfsMultipartComplete(int n) {
        return """
            {"EventName":"s3:ObjectCreated:CompleteMultipartUpload","Key":"backups/db dump %d.tar.gz","Records":[\
            {"eventVersion":"2.1","eventSource":"rustfs:s3","awsRegion":"us-east-1","eventTime":"2026-12-02T10:00:00.12%dZ",\
            "eventName":"s3:ObjectCreated:CompleteMultipartUpload","userIdentity":{"principalId":"rustfsadmin"},\
            "requestParameters":{"principalId":"rustfsadmin","region":"us-east-1","sourceIPAddress":"127.0.0.1"},\
            "responseElements":{"x-amz-request-id":"18A2C0B9D4E5F60%d","x-rustfs-node":"node-1"},\
            "s3":{"s3SchemaVersion":"1.0","configurationId":"Config","bucket":{"name":"backups",\
            "ownerIdentity":{"principalId":"rustfsadmin"},"arn":"arn:aws:s3:::backups"},\
            "object":{"key":"db+dump+%d.tar.gz","size":73400320,"eTag":"b1946ac92492d2347c6235b4d2611184-14",\
            "contentType":"application/gzip","userMetadata":{"x-amz-meta-origin":"nightly"},"sequencer":"1800A1B2C3D4E5F6"}},\
            "source":{"host":"127.0.0.1","port":"","userAgent":"rustfs-cli/1.0"},"rustfsExtension":{"tier":"hot"}}]}\
            """.formatted(n, n % 10, n % 10, n);
    }
}
