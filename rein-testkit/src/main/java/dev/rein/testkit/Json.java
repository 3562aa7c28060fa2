package dev.rein.testkit;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;

/** The one Jackson mapper of the test kit. */
final class Json {

    /**
     * Built once and never reconfigured, so sharing it holds no mutable state between server
     * instances; ObjectMapper is thread-safe for reading and writing once configured.
     */
    static final ObjectMapper MAPPER = JsonMapper.builder().build();

    private Json() {}
}
