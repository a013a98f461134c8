package io.landingledger.emulators.iam;

/** A statement's Effect. */
public enum Effect {
    ALLOW,
    DENY
}
