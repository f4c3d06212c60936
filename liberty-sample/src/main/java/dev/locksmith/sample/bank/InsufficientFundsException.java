package dev.locksmith.sample.bank;

import jakarta.ejb.ApplicationException;

/**
 * A transfer asked for more than its account holds. Rolls the transaction back; answered as HTTP
 * 409 {@code INSUFFICIENT_FUNDS}.
 */
@ApplicationException(rollback = true)
public class InsufficientFundsException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    InsufficientFundsException(String bank, String account, long requested, long balance) {
        super("Account '" + account + "' of bank '" + bank + "' holds " + balance + "; " + requested + " requested");
    }
}
