package io.landingledger.localcloud.template;

import com.fasterxml.jackson.jr.ob.JSON;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A transformed template's JSON ({@link TransformedTemplate}) as plain maps and lists, with the lookups every reader
 * of it needs: resources by logical id and type, parameters, conditions, mappings, outputs. Values are not resolved
 * here: {@link StackScope} resolves them for one stack.
 */
public final class Template {
    private final Map<String, Object> json;

    private Template(Map<String, Object> json) {
        this.json = Collections.unmodifiableMap(json);
    }

    public static Template of(Map<String, Object> json) {
        if (!(json.get("Resources") instanceof Map<?, ?>)) {
            throw new TemplateException("the template has no Resources");
        }
        return new Template(json);
    }

    /** A transformed template's JSON file. */
    public static Template read(Path json) throws IOException {
        return of(JSON.std.mapFrom(Files.readString(json)));
    }

    /** The whole template, as parsed. */
    public Map<String, Object> json() {
        return json;
    }

    public Map<String, Object> resources() {
        return section("Resources");
    }

    public Map<String, Object> parameters() {
        return section("Parameters");
    }

    public Map<String, Object> conditions() {
        return section("Conditions");
    }

    public Map<String, Object> mappings() {
        return section("Mappings");
    }

    public Map<String, Object> outputs() {
        return section("Outputs");
    }

    public boolean has(String logicalId) {
        return resources().containsKey(logicalId);
    }

    /** The resource's declaration (Type, Properties, Condition, DependsOn...). */
    public Map<String, Object> resource(String logicalId) {
        Map<String, Object> resource = asMap(resources().get(logicalId));
        if (resource == null) {
            throw new TemplateException("the template has no resource " + logicalId);
        }
        return resource;
    }

    /** The resource's declaration, which must be of {@code type}. */
    public Map<String, Object> resource(String logicalId, String type) {
        Map<String, Object> resource = asMap(resources().get(logicalId));
        if (resource == null || !type.equals(resource.get("Type"))) {
            throw new TemplateException("the template has no " + type + " " + logicalId);
        }
        return resource;
    }

    /** The resource's type; null when the template has no such resource. */
    public String type(String logicalId) {
        Map<String, Object> resource = asMap(resources().get(logicalId));
        return resource == null ? null : String.valueOf(resource.get("Type"));
    }

    /** The resource's Properties, unresolved (empty when it declares none). */
    public Map<String, Object> properties(String logicalId) {
        Map<String, Object> properties = asMap(resource(logicalId).get("Properties"));
        return properties == null ? Map.of() : properties;
    }

    /**
     * The resources {@code logicalId}'s Properties refer to (Ref, Fn::GetAtt, Fn::Sub): what must exist before it, with
     * its DependsOn.
     */
    public Set<String> references(String logicalId) {
        return Intrinsics.references(properties(logicalId), resources().keySet());
    }

    /** The logical ids of the resources of {@code type}, in template order. */
    public List<String> ofType(String type) {
        List<String> ids = new ArrayList<>();
        resources().forEach((id, resource) -> {
            if (resource instanceof Map<?, ?> r && type.equals(r.get("Type"))) {
                ids.add(id);
            }
        });
        return ids;
    }

    private Map<String, Object> section(String name) {
        Map<String, Object> section = asMap(json.get(name));
        return section == null ? Map.of() : section;
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> asMap(Object value) {
        return value instanceof Map<?, ?> map ? (Map<String, Object>) map : null;
    }
}
