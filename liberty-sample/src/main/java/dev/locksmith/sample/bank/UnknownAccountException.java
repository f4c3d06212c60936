package dev.locksmith.sample.bank;

import jakarta.ejb.ApplicationException;

/**
 * A transfer named an account its bank does not have. Answered as HTTP 404 {@code UNKNOWN_ACCOUNT}.
 */
@ApplicationException(rollback = true)
public class UnknownAccountException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    UnknownAccountException(String bank, String account) {
        super("Bank '" + bank + "' has no account '" + account + "'; open it first with PUT /api/bank/" + bank
                + "/accounts/" + account + " {\"balance\": 100}");
    }
}
