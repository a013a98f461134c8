package io.landingledger.localcloud.iam;

/** A statement's Effect. */
public enum Effect {
    ALLOW,
    DENY
}
