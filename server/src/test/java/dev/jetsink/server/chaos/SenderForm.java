package dev.jetsink.server.chaos;

import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

/**
 * The request shapes of real senders (shared/senders fixtures: MinIO notify, MinIO audit batch,
 * Ceph RGW), rebuilt around an event token so each event is findable in the stream. Events share
 * objects: request {@code seq} of sender {@code s} is about {@code chaos/s<s>-k<seq % KEYS>.jpg},
 * and each object's events alternate put, delete, put, ... (every event of an audit batch is about
 * the request's object, in body order). The token sits where a real sender has a unique value: the
 * notify record's {@code versionId}, the audit entry's {@code requestID}, Ceph's {@code eventId}.
 */
enum SenderForm {
    /** MinIO notify: webhook form, one record, key form-encoded in the record. Retries every 3 s for real. */
    MINIO_NOTIFY("/notify", 1, 250),
    /** MinIO audit with batching: NDJSON, no Content-Type, a payload-count header. */
    MINIO_AUDIT_BATCH("/audit", 3, 250),
    /** Ceph RGW persistent topic: {@code Records} only, raw key, {@code Expect: 100-continue}; retries at once. */
    CEPH_NOTIFY("/notify", 1, 50);

    /** Objects each sender writes to, in turn: request {@code seq} is about object {@code seq % KEYS}. */
    static final int KEYS = 8;

    final String path;
    /** Events per request. */
    final int perRequest;
    /** Pause before a re-send (real MinIO waits 3 s; shortened so a campaign's minutes see many). */
    final long retryPauseMillis;

    SenderForm(String path, int perRequest, long retryPauseMillis) {
        this.path = path;
        this.perRequest = perRequest;
        this.retryPauseMillis = retryPauseMillis;
    }

    /** The tokens of request {@code seq} of sender {@code sender}. */
    List<String> tokens(int sender, long seq) {
        if (perRequest == 1) {
            return List.of("cx" + sender + "n" + seq + "x");
        }
        return IntStream.range(0, perRequest).mapToObj(i -> "cx" + sender + "n" + seq + "b" + i + "x").toList();
    }

    /** The object (key in bucket {@code photos}) request {@code seq} of {@code sender} is about. */
    static String objectKey(String sender, long seq) {
        return "chaos/s" + sender + "-k" + Math.floorMod(seq, KEYS) + ".jpg";
    }

    /**
     * Whether event {@code index} of request {@code seq} puts its object (else it deletes it): the
     * events of one object alternate, starting with a put, counting every event of every request
     * about it ({@code perRequest} per request).
     */
    static boolean isPut(long seq, int index, int perRequest) {
        long place = Math.floorDiv(seq, KEYS) * perRequest + index;
        return place % 2 == 0;
    }

    /** Headers besides Content-Length and Host. */
    Map<String, String> headers(int count) {
        return switch (this) {
            case MINIO_NOTIFY -> Map.of("User-Agent", "Go-http-client/1.1", "Content-Type", "application/json");
            case MINIO_AUDIT_BATCH -> Map.of("User-Agent", "MinIO (linux; amd64) chaos", "X-Minio-Deployment-Id",
                "9a3c1e2b-4d5f-4a6b-8c7d-0e1f2a3b4c5d", "X-Minio-Version", "2025-10-15T17:29:55Z",
                "X-Minio-Webhook-Payload-Count", Integer.toString(count));
            case CEPH_NOTIFY -> Map.of("Accept", "*/*", "Content-Type", "application/json");
        };
    }

    /** The body of request {@code seq} of {@code sender}, carrying {@code tokens} (from {@link #tokens}). */
    String body(int sender, long seq, List<String> tokens) {
        String key = objectKey(Integer.toString(sender), seq);
        return switch (this) {
            case MINIO_NOTIFY -> minioNotify(tokens.get(0), key, seq, isPut(seq, 0, 1));
            case MINIO_AUDIT_BATCH -> IntStream.range(0, tokens.size())
                .mapToObj(i -> minioAudit(tokens.get(i), key, seq, isPut(seq, i, perRequest)) + "\n")
                .collect(Collectors.joining());
            case CEPH_NOTIFY -> ceph(tokens.get(0), key, seq, isPut(seq, 0, 1));
        };
    }

    private static String hex(long seq) {
        return String.format("%016X", 0x187477ADB0000000L + seq);
    }

    /** MinIO's record: a put carries the object's size, type and metadata; a delete only its key and version. */
    private static String minioNotify(String token, String key, long seq, boolean put) {
        String name = put ? "s3:ObjectCreated:Put" : "s3:ObjectRemoved:Delete";
        String encoded = key.replace("/", "%2F");
        String object = put
            ? "{\"key\":\"" + encoded + "\",\"size\":53421,\"eTag\":\"8b1a9953c4611296a827abf8c47804d7\","
                + "\"contentType\":\"image/jpeg\",\"userMetadata\":{\"X-Amz-Meta-Camera\":\"x100\",\"content-type\":\"image/jpeg\"},"
                + "\"versionId\":\"" + token + "\",\"sequencer\":\"" + hex(seq) + "\"}"
            : "{\"key\":\"" + encoded + "\",\"versionId\":\"" + token + "\",\"sequencer\":\"" + hex(seq) + "\"}";
        return "{\"EventName\":\"" + name + "\",\"Key\":\"photos/" + key + "\",\"Records\":[{\"eventVersion\":\"2.0\","
            + "\"eventSource\":\"minio:s3\",\"awsRegion\":\"\",\"eventTime\":\"2026-12-05T08:15:42.104Z\","
            + "\"eventName\":\"" + name + "\",\"userIdentity\":{\"principalId\":\"minioadmin\"},"
            + "\"requestParameters\":{\"principalId\":\"minioadmin\",\"region\":\"\",\"sourceIPAddress\":\"10.0.3.17\"},"
            + "\"responseElements\":{" + (put ? "" : "\"content-length\":\"0\",")
            + "\"x-amz-id-2\":\"e0c385c033c4356721cc9121d3109c9b9bfdefb22fd2747078acd22328799e36\","
            + "\"x-amz-request-id\":\"" + hex(seq) + "\",\"x-minio-deployment-id\":\"9a3c1e2b-4d5f-4a6b-8c7d-0e1f2a3b4c5d\","
            + "\"x-minio-origin-endpoint\":\"http://10.0.3.1:9000\"},\"s3\":{\"s3SchemaVersion\":\"1.0\","
            + "\"configurationId\":\"Config\",\"bucket\":{\"name\":\"photos\",\"ownerIdentity\":{\"principalId\":\"minioadmin\"},"
            + "\"arn\":\"arn:aws:s3:::photos\"},\"object\":" + object + "},"
            + "\"source\":{\"host\":\"10.0.3.17\",\"port\":\"\",\"userAgent\":\"aws-cli/2.17.0\"}}]}";
    }

    /** One MinIO audit entry: PutObject (200, the body received) or DeleteObject (204, nothing moved). */
    private static String minioAudit(String token, String key, long seq, boolean put) {
        String api = put ? "PutObject" : "DeleteObject";
        String call = put
            ? "\"status\":\"OK\",\"statusCode\":200,\"rx\":53421,\"tx\":0,\"txHeaders\":455,"
                + "\"timeToResponse\":\"24310527ns\",\"timeToResponseInNS\":\"24310527\""
            : "\"status\":\"No Content\",\"statusCode\":204,\"rx\":0,\"tx\":0,\"txHeaders\":389,"
                + "\"timeToResponse\":\"6254310ns\",\"timeToResponseInNS\":\"6254310\"";
        String requestHeader = put
            ? "\"AWS4-HMAC-SHA256 Credential=minioadmin/20251103/us-east-1/s3/aws4_request, Signature=3fa9c2\","
                + "\"Content-Type\":\"image/jpeg\",\"X-Amz-Date\":\"20251103T101542Z\"}"
            : "\"AWS4-HMAC-SHA256 Credential=minioadmin/20251103/us-east-1/s3/aws4_request, Signature=0c5d88\","
                + "\"X-Amz-Date\":\"20251103T101542Z\"}";
        String responseHeader = put
            ? "{\"ETag\":\"8b1a9953c4611296a827abf8c47804d7\",\"Server\":\"MinIO\",\"X-Amz-Request-Id\":\"" + hex(seq) + "\"}"
            : "{\"Content-Length\":\"0\",\"Server\":\"MinIO\",\"X-Amz-Request-Id\":\"" + hex(seq) + "\"}";
        return "{\"version\":\"1\",\"deploymentid\":\"9a3c1e2b-4d5f-4a6b-8c7d-0e1f2a3b4c5d\","
            + "\"time\":\"2025-11-03T10:15:42.10598213Z\",\"event\":\"\",\"trigger\":\"incoming\","
            + "\"api\":{\"name\":\"" + api + "\",\"bucket\":\"photos\",\"object\":\"" + key + "\"," + call + "},"
            + "\"remotehost\":\"10.0.3.17\",\"requestID\":\"" + token + "\","
            + "\"userAgent\":\"aws-cli/2.17.0\",\"requestPath\":\"/photos/" + key + "\","
            + "\"requestHost\":\"minio.example.com:9000\",\"requestHeader\":{\"Authorization\":" + requestHeader + ","
            + "\"responseHeader\":" + responseHeader + ","
            + "\"tags\":{\"" + api + "\":\"name=" + key + "\"},\"accessKey\":\"minioadmin\"}";
    }

    /** Ceph RGW's record: the raw key; a delete still names the object's size, tag and metadata. */
    private static String ceph(String token, String key, long seq, boolean put) {
        return "{\"Records\":[{\"eventVersion\":\"2.2\",\"eventSource\":\"ceph:s3\",\"awsRegion\":\"default\","
            + "\"eventTime\":\"2025-11-03T10:15:42.103456Z\",\"eventName\":\""
            + (put ? "ObjectCreated:Put" : "ObjectRemoved:Delete") + "\","
            + "\"userIdentity\":{\"principalId\":\"tester\"},\"requestParameters\":{\"sourceIPAddress\":\"\"},"
            + "\"responseElements\":{\"x-amz-request-id\":\"5d7e9c1a-3b2f-4e8d-9a6c-1f0e2d3c4b5a.4137." + seq + "\","
            + "\"x-amz-id-2\":\"1029-default-default\"},\"s3\":{\"s3SchemaVersion\":\"1.0\",\"configurationId\":\"jetsink-chaos\","
            + "\"bucket\":{\"name\":\"photos\",\"ownerIdentity\":{\"principalId\":\"tester\"},\"arn\":\"arn:aws:s3:default::photos\","
            + "\"id\":\"5d7e9c1a-3b2f-4e8d-9a6c-1f0e2d3c4b5a.4137.1\"},\"object\":{\"key\":\"" + key + "\","
            + "\"size\":53421,\"eTag\":\"8b1a9953c4611296a827abf8c47804d7\",\"versionId\":\"\",\"sequencer\":\"" + hex(seq) + "\","
            + "\"metadata\":[{\"key\":\"x-amz-meta-camera\",\"val\":\"x100\"}],\"tags\":[]}},"
            + "\"eventId\":\"1762164942." + seq + "." + token + "\",\"opaqueData\":\"\"}]}";
    }
}
