/**
 * The protocol simulation's oracle of its own: a small reference model of the contract rules the simulated files
 * exercise ({@link io.landingledger.core.reference.ReferenceValidator}) and of "which input is newer"
 * ({@link io.landingledger.core.reference.ReferenceInbox}), written from docs/design.md and the shipped contracts,
 * apart from the production classes: nothing here calls the validator, the contract loader, {@code UnitInputs} or
 * {@code PublishDecision}. A bug in one of those would otherwise be invisible to a simulation whose expected output
 * came from the same code. Property tests in this package ({@code ReferenceValidatorPropertyTest},
 * {@code ReferenceInboxPropertyTest}) check the reference against the production classes on seeded generated inputs,
 * so the two can only drift apart loudly.
 *
 * <p>The reference is deliberately small and slow: a flat contract of string, integer and timestamp fields, JSONL
 * only, whole-second timestamps. It refuses to judge what it does not model (an exception), rather than guess.
 */
package io.landingledger.core.reference;
