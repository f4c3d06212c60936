package dev.locksmith.sample.bank;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

/**
 * {@link SessionBeanTransfers} on a server with Enterprise Beans: the transfer of {@link TellerDesk}.
 */
@ApplicationScoped
public class SessionBeanTeller implements SessionBeanTransfers {
    @Inject
    TellerDesk desk;

    @Override
    public TransferReceipt transfer(String bank, String from, String to, long amount) {
        return desk.transfer(bank, from, to, amount);
    }
}
