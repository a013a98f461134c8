package io.landingledger.localcloud.template;

/**
 * The template could not be read or resolved: an intrinsic this model does not implement, a reference to something
 * the stack does not hold, a parameter outside its constraints. The message names where; a value is never left
 * unresolved or guessed.
 */
public final class TemplateException extends RuntimeException {
    public TemplateException(String message) {
        super(message);
    }

    public TemplateException(String message, Throwable cause) {
        super(message, cause);
    }
}
