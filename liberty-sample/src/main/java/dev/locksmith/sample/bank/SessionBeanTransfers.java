package dev.locksmith.sample.bank;

/**
 * The fenced transfer through a stateless session bean, on a server with Enterprise Beans; absent
 * on Quarkus, where {@code ?teller=ejb} is answered with 400.
 */
public interface SessionBeanTransfers {

    /**
     * @return the balances read and written
     * @throws dev.locksmith.FencedWriteRefusedException if a later holder of the bank's lock has
     *                                                   checked in first; nothing was written
     */
    TransferReceipt transfer(String bank, String from, String to, long amount);
}
