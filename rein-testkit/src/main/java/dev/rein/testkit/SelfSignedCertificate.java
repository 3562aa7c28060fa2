package dev.rein.testkit;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.KeyStore;
import java.security.PrivateKey;
import java.security.Signature;
import java.security.cert.Certificate;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.security.spec.ECGenParameterSpec;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;

/**
 * A self-signed X.509 v3 certificate for 127.0.0.1 (P-256 key, ECDSA with SHA-256, the subject
 * alternative name {@code IP:127.0.0.1} that hostname verification checks), made in the JVM with
 * public JDK APIs only: the DER of the certificate is written here and signed with
 * {@link Signature}. It is what {@code keytool -genkeypair -keyalg EC -ext SAN=ip:127.0.0.1} makes,
 * in milliseconds instead of a JVM start, and with nothing written to disk. It is valid from a day
 * ago for two days, so it never lives on in the repository.
 */
public record SelfSignedCertificate(PrivateKey key, X509Certificate certificate) {
    /** ecdsa-with-SHA256 (RFC 5758). */
    private static final String ECDSA_SHA256 = "1.2.840.10045.4.3.2";
    /** commonName (X.520). */
    private static final String COMMON_NAME = "2.5.4.3";
    /** subjectAltName (RFC 5280, 4.2.1.6). */
    private static final String SUBJECT_ALT_NAME = "2.5.29.17";

    /** Makes a new key pair and its certificate for 127.0.0.1. */
    public static SelfSignedCertificate forLoopback() throws Exception {
        KeyPairGenerator generator = KeyPairGenerator.getInstance("EC");
        generator.initialize(new ECGenParameterSpec("secp256r1"));
        KeyPair pair = generator.generateKeyPair();
        byte[] algorithm = sequence(oid(ECDSA_SHA256));
        byte[] name = sequence(set(sequence(oid(COMMON_NAME), tagged(0x0c, "127.0.0.1".getBytes(StandardCharsets.US_ASCII)))));
        ZonedDateTime now = ZonedDateTime.now(ZoneOffset.UTC);
        byte[] validity = sequence(utcTime(now.minusDays(1)), utcTime(now.plusDays(1)));
        // GeneralName iPAddress is [7] IMPLICIT OCTET STRING: the four bytes of the address.
        byte[] altNames = sequence(tagged(0x87, new byte[] {127, 0, 0, 1}));
        byte[] extensions = tagged(0xa3, sequence(sequence(oid(SUBJECT_ALT_NAME), tagged(0x04, altNames))));
        byte[] serial = tagged(0x02, new byte[] {0x01, (byte) System.nanoTime(), (byte) (System.nanoTime() >>> 8)});
        byte[] version = tagged(0xa0, tagged(0x02, new byte[] {2})); // v3, for the extension
        byte[] tbs = sequence(version, serial, algorithm, name, validity, name, pair.getPublic().getEncoded(), extensions);
        Signature signer = Signature.getInstance("SHA256withECDSA");
        signer.initSign(pair.getPrivate());
        signer.update(tbs);
        byte[] signature = signer.sign(); // already the DER ECDSA-Sig-Value a certificate carries
        byte[] bits = new byte[signature.length + 1]; // BIT STRING: no unused bits, then the signature
        System.arraycopy(signature, 0, bits, 1, signature.length);
        byte[] der = sequence(tbs, algorithm, tagged(0x03, bits));
        X509Certificate certificate = (X509Certificate) CertificateFactory.getInstance("X.509")
                .generateCertificate(new ByteArrayInputStream(der));
        certificate.verify(pair.getPublic()); // the encoding above is checked by the JDK's own parser and verifier
        return new SelfSignedCertificate(pair.getPrivate(), certificate);
    }

    /** An in-memory PKCS12 key store holding this key and certificate under {@code alias}, for a TLS server's key managers. */
    public KeyStore keyStore(String alias, char[] password) throws Exception {
        KeyStore keys = KeyStore.getInstance("PKCS12");
        keys.load(null, null);
        keys.setKeyEntry(alias, key, password, new Certificate[] {certificate});
        return keys;
    }

    private static byte[] utcTime(ZonedDateTime time) {
        return tagged(0x17, time.format(DateTimeFormatter.ofPattern("yyMMddHHmmss'Z'")).getBytes(StandardCharsets.US_ASCII));
    }

    private static byte[] oid(String dotted) {
        String[] arcs = dotted.split("\\.");
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.write(Integer.parseInt(arcs[0]) * 40 + Integer.parseInt(arcs[1]));
        for (int i = 2; i < arcs.length; i++) {
            long arc = Long.parseLong(arcs[i]);
            int groups = Math.max(1, (64 - Long.numberOfLeadingZeros(arc) + 6) / 7);
            for (int g = groups - 1; g >= 0; g--) {
                out.write((int) ((arc >>> (7 * g)) & 0x7f) | (g == 0 ? 0 : 0x80)); // base 128, high bit on all but the last
            }
        }
        return tagged(0x06, out.toByteArray());
    }

    private static byte[] sequence(byte[]... parts) {
        return tagged(0x30, concat(parts));
    }

    private static byte[] set(byte[]... parts) {
        return tagged(0x31, concat(parts));
    }

    private static byte[] concat(byte[]... parts) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (byte[] part : parts) {
            out.writeBytes(part);
        }
        return out.toByteArray();
    }

    /** A DER element: the tag, the length (short or long form), the content. */
    private static byte[] tagged(int tag, byte[] content) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.write(tag);
        int length = content.length;
        if (length < 0x80) {
            out.write(length);
        } else {
            int bytes = (32 - Integer.numberOfLeadingZeros(length) + 7) / 8;
            out.write(0x80 | bytes);
            for (int i = bytes - 1; i >= 0; i--) {
                out.write(length >>> (8 * i));
            }
        }
        out.writeBytes(content);
        return out.toByteArray();
    }
}
