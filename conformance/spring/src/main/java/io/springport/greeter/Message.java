package io.springport.greeter;

import jakarta.validation.constraints.NotNull;

/** The spec's Message: one field, text (section 2.1). */
public record Message(@NotNull String text) {
}
