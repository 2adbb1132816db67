package com.example.orders;

import java.util.List;
import java.util.Optional;
import static java.util.Objects.requireNonNull;

/**
 * Service for orders.
 */
@Service
public class OrderService<T extends Order> implements AutoCloseable {
    private static final int MAX_ITEMS = 100;
    private final Repository<T> repo;

    public OrderService(Repository<T> repo) {
        this.repo = requireNonNull(repo, "repo // not a comment");
    }

    @Override
    public void close() {}

    public Optional<T> find(long id) {
        return repo.find(id);
    }

    public List<T> find(String customer, int limit) throws RepositoryException {
        return repo.byCustomer(customer).limit(limit).toList();
    }

    @Transactional(readOnly = false)
    @Deprecated
    public synchronized <R> R submit(T order, Function<T, R> mapper) {
        return mapper.apply(order);
    }

    public static class Builder {
        private Repository<? extends Order> repo;

        public Builder repo(Repository<? extends Order> repo) {
            this.repo = repo;
            return this;
        }
    }

    enum Status { NEW, PAID, SHIPPED }
}

interface Repository<T> {
    Optional<T> find(long id);
    default int count() { return 0; }
}

record Order(long id, String customer) {
    Order {
        requireNonNull(customer);
    }
}
