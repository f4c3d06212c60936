package dev.locksmith.internal.redis;

import io.lettuce.core.RedisCommandExecutionException;
import java.net.ConnectException;
import java.net.UnknownHostException;
import java.security.cert.CertificateException;
import java.util.Locale;
import javax.net.ssl.SSLException;

/**
 * Says why a connection to Redis could not be made, from the deepest cause that tells: a
 * refused password is an authentication failure, a certificate the JVM does not trust is a TLS
 * failure, a refused connection means nothing listens there. The client's own top-level message
 * ("Unable to connect to ...") says none of that.
 */
final class ConnectFailure {
    private ConnectFailure() {
    }

    /**
     * @param failure what the client threw
     * @param setting the setting that holds the address, for the fix
     * @return the reason and the fix, in one sentence or two
     */
    static String explain(Throwable failure, String setting) {
        for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
            String message = String.valueOf(cause.getMessage());
            String code = message.split(" ", 2)[0].toUpperCase(Locale.ROOT);
            if (cause instanceof RedisCommandExecutionException
                    && (code.equals("WRONGPASS") || code.equals("NOAUTH") || code.equals("NOPERM"))) {
                return "authentication failed: Redis answered '" + message + "'. Check the user name and password in "
                        + setting + ", and that the ACL user exists and is on";
            }
            if (cause instanceof CertificateException || cause instanceof SSLException) {
                return "the TLS handshake failed: " + message + ". The server's certificate must be trusted by the"
                        + " JVM's truststore (javax.net.ssl.trustStore) and name the host in " + setting;
            }
            if (cause instanceof UnknownHostException) {
                return "the host is unknown: " + message + ". Check the host in " + setting;
            }
            if (cause instanceof ConnectException) {
                return "the connection was refused (" + message + "). Check " + setting
                        + " and that the server is running";
            }
        }
        Throwable root = failure;
        while (root.getCause() != null) {
            root = root.getCause();
        }
        return root.getMessage() + ". Check " + setting + " and that the server is running";
    }
}
