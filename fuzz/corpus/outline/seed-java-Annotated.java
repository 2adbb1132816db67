package com.example.store;

import java.util.HashMap;
import java.util.Map;

// An entity caught mid-edit: one statement in `broken` is half written; the annotated methods
// around it are all listed, and only the broken line is named.
@Entity
@Table(name = "records")
public class RecordStore {
    private final Map<String, String> records = new HashMap<>();

    @Override
    public String toString() {
        return "RecordStore" + records;
    }

    @Transactional
    public void save(String id, String value) {
        records.put(id, value);
    }

    @Deprecated
    public void broken() {
        int = ;
    }

    @Transactional(readOnly = true)
    public String load(String id) {
        return records.get(id);
    }
}
