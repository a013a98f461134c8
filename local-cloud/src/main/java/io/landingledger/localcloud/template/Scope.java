package io.landingledger.localcloud.template;

/** What a template's references resolve against ({@link Intrinsics}); {@link StackScope} is the one implementation. */
interface Scope {
    /** The value of {@code Ref name}: a parameter, a pseudo parameter or a resource; null when unknown. */
    Object ref(String name);

    /** {@code Fn::GetAtt [logicalId, attribute]}; null when the resource or attribute is unknown. */
    Object attribute(String logicalId, String attribute);

    /** A condition's value. */
    boolean condition(String name);

    /** {@code Fn::FindInMap [map, top, second]}; null when the template has no such entry. */
    Object mapping(String map, String topKey, String secondKey);
}
