package dev.rein.state;

/**
 * A save lost a race: the stored run changed since it was loaded (another process resumed it or
 * recorded a decision). Load it again and look before acting.
 */
public class StoreConflictException extends StoreException {
    public StoreConflictException(String message) {
        super(message);
    }
}
