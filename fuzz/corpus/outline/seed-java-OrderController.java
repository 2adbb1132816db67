package com.example.orders.web;

import java.util.List;
import org.springframework.web.bind.annotation.*;

@RestController
@RequestMapping(value = "/api/v1/orders", produces = MediaType.APPLICATION_JSON_VALUE, consumes = MediaType.APPLICATION_JSON_VALUE)
public class OrderController {
    public static final int MAX_PAGE_SIZE = 500, DEFAULT_PAGE_SIZE = 50;
    public final OrderService orders;
    @Deprecated
    public String region = "eu-west-1";
    protected int retries;
    private final Clock clock;

    public OrderController(OrderService orders, Clock clock) {
        this.orders = orders;
        this.clock = clock;
    }

    @GetMapping(value = "/{orderId}/items", produces = {MediaType.APPLICATION_JSON_VALUE, MediaType.APPLICATION_XML_VALUE})
    @PreAuthorize("hasRole('ADMIN') or @orderSecurity.isOwner(authentication, #orderId) or hasAuthority('SCOPE_orders:read')")
    public ResponseEntity<List<OrderItemResponse>> listItems(@PathVariable("orderId") long orderId, @RequestParam(defaultValue = "50") int size) {
        return ResponseEntity.ok(orders.items(orderId, size));
    }
}

interface OrderEvents {
    String TOPIC = "orders";
    int PARTITIONS = 12;

    void published(Order order);
}
