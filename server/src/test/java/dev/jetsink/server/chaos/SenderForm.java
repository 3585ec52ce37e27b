package dev.jetsink.server.chaos;

import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

/**
 * The request shapes of real senders (shared/senders fixtures: MinIO notify, MinIO audit batch,
 * Ceph RGW), rebuilt around an event token so each event is distinct and findable in the stream.
 */
enum SenderForm {
    /** MinIO notify: webhook form, one record, key form-encoded in the record. Retries every 3 s for real. */
    MINIO_NOTIFY("/notify", 1, 250),
    /** MinIO audit with batching: NDJSON, no Content-Type, a payload-count header. */
    MINIO_AUDIT_BATCH("/audit", 3, 250),
    /** Ceph RGW persistent topic: {@code Records} only, raw key, {@code Expect: 100-continue}; retries at once. */
    CEPH_NOTIFY("/notify", 1, 50);

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

    String body(List<String> tokens, long seq) {
        return switch (this) {
            case MINIO_NOTIFY -> minioNotify(tokens.get(0), seq);
            case MINIO_AUDIT_BATCH -> tokens.stream().map(t -> minioAudit(t, seq) + "\n").collect(Collectors.joining());
            case CEPH_NOTIFY -> ceph(tokens.get(0), seq);
        };
    }

    private static String hex(long seq) {
        return String.format("%016X", 0x187477ADB0000000L + seq);
    }

    private static String minioNotify(String token, long seq) {
        String key = "chaos/" + token + " 1.jpg";
        String encoded = "chaos%2F" + token + "+1.jpg";
        return "{\"EventName\":\"s3:ObjectCreated:Put\",\"Key\":\"photos/" + key + "\",\"Records\":[{\"eventVersion\":\"2.0\","
            + "\"eventSource\":\"minio:s3\",\"awsRegion\":\"\",\"eventTime\":\"2026-12-05T08:15:42.104Z\","
            + "\"eventName\":\"s3:ObjectCreated:Put\",\"userIdentity\":{\"principalId\":\"minioadmin\"},"
            + "\"requestParameters\":{\"principalId\":\"minioadmin\",\"region\":\"\",\"sourceIPAddress\":\"10.0.3.17\"},"
            + "\"responseElements\":{\"x-amz-id-2\":\"e0c385c033c4356721cc9121d3109c9b9bfdefb22fd2747078acd22328799e36\","
            + "\"x-amz-request-id\":\"" + hex(seq) + "\",\"x-minio-deployment-id\":\"9a3c1e2b-4d5f-4a6b-8c7d-0e1f2a3b4c5d\","
            + "\"x-minio-origin-endpoint\":\"http://10.0.3.1:9000\"},\"s3\":{\"s3SchemaVersion\":\"1.0\","
            + "\"configurationId\":\"Config\",\"bucket\":{\"name\":\"photos\",\"ownerIdentity\":{\"principalId\":\"minioadmin\"},"
            + "\"arn\":\"arn:aws:s3:::photos\"},\"object\":{\"key\":\"" + encoded + "\",\"size\":53421,"
            + "\"eTag\":\"8b1a9953c4611296a827abf8c47804d7\",\"contentType\":\"image/jpeg\","
            + "\"userMetadata\":{\"X-Amz-Meta-Camera\":\"x100\",\"content-type\":\"image/jpeg\"},"
            + "\"versionId\":\"3f1c2b5e-8a4d-4e2f-9b6a-0c7d1e2f3a4b\",\"sequencer\":\"" + hex(seq) + "\"}},"
            + "\"source\":{\"host\":\"10.0.3.17\",\"port\":\"\",\"userAgent\":\"aws-cli/2.17.0\"}}]}";
    }

    private static String minioAudit(String token, long seq) {
        return "{\"version\":\"1\",\"deploymentid\":\"9a3c1e2b-4d5f-4a6b-8c7d-0e1f2a3b4c5d\","
            + "\"time\":\"2025-11-03T10:15:42.10598213Z\",\"event\":\"\",\"trigger\":\"incoming\","
            + "\"api\":{\"name\":\"PutObject\",\"bucket\":\"photos\",\"object\":\"chaos/" + token + ".jpg\",\"status\":\"OK\","
            + "\"statusCode\":200,\"rx\":53421,\"tx\":0,\"txHeaders\":455,\"timeToResponse\":\"24310527ns\","
            + "\"timeToResponseInNS\":\"24310527\"},\"remotehost\":\"10.0.3.17\",\"requestID\":\"" + token + "\","
            + "\"userAgent\":\"aws-cli/2.17.0\",\"requestPath\":\"/photos/chaos/" + token + ".jpg\","
            + "\"requestHost\":\"minio.example.com:9000\",\"requestHeader\":{\"Authorization\":"
            + "\"AWS4-HMAC-SHA256 Credential=minioadmin/20251103/us-east-1/s3/aws4_request, Signature=3fa9c2\","
            + "\"Content-Type\":\"image/jpeg\",\"X-Amz-Date\":\"20251103T101542Z\"},\"responseHeader\":{\"ETag\":"
            + "\"8b1a9953c4611296a827abf8c47804d7\",\"Server\":\"MinIO\",\"X-Amz-Request-Id\":\"" + hex(seq) + "\"},"
            + "\"tags\":{\"PutObject\":\"name=chaos/" + token + ".jpg\"},\"accessKey\":\"minioadmin\"}";
    }

    private static String ceph(String token, long seq) {
        return "{\"Records\":[{\"eventVersion\":\"2.2\",\"eventSource\":\"ceph:s3\",\"awsRegion\":\"default\","
            + "\"eventTime\":\"2025-11-03T10:15:42.103456Z\",\"eventName\":\"ObjectCreated:Put\","
            + "\"userIdentity\":{\"principalId\":\"tester\"},\"requestParameters\":{\"sourceIPAddress\":\"\"},"
            + "\"responseElements\":{\"x-amz-request-id\":\"5d7e9c1a-3b2f-4e8d-9a6c-1f0e2d3c4b5a.4137." + seq + "\","
            + "\"x-amz-id-2\":\"1029-default-default\"},\"s3\":{\"s3SchemaVersion\":\"1.0\",\"configurationId\":\"jetsink-put\","
            + "\"bucket\":{\"name\":\"photos\",\"ownerIdentity\":{\"principalId\":\"tester\"},\"arn\":\"arn:aws:s3:default::photos\","
            + "\"id\":\"5d7e9c1a-3b2f-4e8d-9a6c-1f0e2d3c4b5a.4137.1\"},\"object\":{\"key\":\"chaos/" + token + " a+b.jpg\","
            + "\"size\":53421,\"eTag\":\"8b1a9953c4611296a827abf8c47804d7\",\"versionId\":\"\",\"sequencer\":\"" + hex(seq) + "\","
            + "\"metadata\":[{\"key\":\"x-amz-meta-camera\",\"val\":\"x100\"}],\"tags\":[]}},"
            + "\"eventId\":\"1762164942." + seq + "." + token + "\",\"opaqueData\":\"\"}]}";
    }
}
