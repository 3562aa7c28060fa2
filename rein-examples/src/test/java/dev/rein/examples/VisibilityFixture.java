package dev.rein.examples;

/** Members of each visibility, for {@link DocApiNamesTest}'s check of what a reader can call. */
public class VisibilityFixture {
    public void open() {}

    protected void forSubclasses() {}

    void packaged() {}

    @SuppressWarnings("unused")
    private void hidden() {}

    /** A type no application can extend: its protected members are out of a reader's reach. */
    public static final class Closed {
        protected void forSubclasses() {}
    }

    /** A type a reader cannot name, whatever its members. */
    static final class Hidden {
        public void open() {}
    }
}
