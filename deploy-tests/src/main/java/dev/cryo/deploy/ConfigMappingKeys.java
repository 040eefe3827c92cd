package dev.cryo.deploy;

import com.github.javaparser.JavaParser;
import com.github.javaparser.ParserConfiguration;
import com.github.javaparser.ast.CompilationUnit;
import com.github.javaparser.ast.body.ClassOrInterfaceDeclaration;
import com.github.javaparser.ast.body.MethodDeclaration;
import com.github.javaparser.ast.expr.AnnotationExpr;
import com.github.javaparser.ast.expr.Expression;
import com.github.javaparser.ast.expr.MemberValuePair;
import com.github.javaparser.ast.expr.NormalAnnotationExpr;
import com.github.javaparser.ast.expr.SingleMemberAnnotationExpr;
import com.github.javaparser.ast.expr.StringLiteralExpr;
import com.github.javaparser.ast.type.ClassOrInterfaceType;
import com.github.javaparser.ast.type.Type;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * The configuration keys a module's sources declare, read without running them: each
 * {@code @ConfigMapping} interface walked from its prefix (nested groups, maps and defaults, in
 * SmallRye's kebab-case naming), and each {@code @ConfigProperty} name.
 */
final class ConfigMappingKeys {

    /** The keys of the @ConfigMapping interfaces and @ConfigProperty fields of a module's sources. */
    static List<ConfigKey> of(Path sources, String module, Map<String, String> defaults) {
        if (!Files.isDirectory(sources)) {
            return List.of();
        }
        JavaParser parser = new JavaParser(new ParserConfiguration()
                .setLanguageLevel(ParserConfiguration.LanguageLevel.JAVA_17));
        List<CompilationUnit> units = new ArrayList<>();
        try (Stream<Path> files = Files.walk(sources)) {
            for (Path file : files.filter(path -> path.toString().endsWith(".java")).sorted().toList()) {
                String source = Files.readString(file);
                // only files that hold configuration are parsed (a mapping's nested interfaces live in its file)
                if (source.contains("ConfigMapping") || source.contains("ConfigProperty")) {
                    units.add(parser.parse(source).getResult().orElseThrow(
                            () -> new IllegalStateException("Cannot parse " + file)));
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot read the sources of " + module, e);
        }
        Map<String, ClassOrInterfaceDeclaration> interfaces = new HashMap<>();
        for (CompilationUnit unit : units) {
            unit.findAll(ClassOrInterfaceDeclaration.class, ClassOrInterfaceDeclaration::isInterface)
                    .forEach(declaration -> interfaces.putIfAbsent(declaration.getNameAsString(), declaration));
        }
        List<ConfigKey> keys = new ArrayList<>();
        for (CompilationUnit unit : units) {
            for (ClassOrInterfaceDeclaration mapping : unit.findAll(ClassOrInterfaceDeclaration.class,
                    declaration -> declaration.getAnnotationByName("ConfigMapping").isPresent())) {
                String prefix = attribute(mapping.getAnnotationByName("ConfigMapping").orElseThrow(), "prefix")
                        .orElseThrow(() -> new IllegalStateException("Cannot read @ConfigMapping of "
                                + mapping.getNameAsString() + ": no prefix"));
                String origin = module + " " + mapping.getNameAsString();
                walk(mapping, ConfigKey.split(prefix), interfaces, origin, keys, defaults, 0);
            }
            unit.findAll(AnnotationExpr.class, annotation -> annotation.getNameAsString().equals("ConfigProperty"))
                    .forEach(annotation -> attribute(annotation, "name").ifPresent(
                            name -> keys.add(ConfigKey.literal(name, module + " @ConfigProperty"))));
        }
        return keys;
    }

    private static void walk(ClassOrInterfaceDeclaration declaration, List<String> prefix,
                             Map<String, ClassOrInterfaceDeclaration> interfaces, String origin,
                             List<ConfigKey> keys, Map<String, String> defaults, int depth) {
        if (depth > 8) {
            throw new IllegalStateException("Cannot walk " + origin + ": nested deeper than 8 levels");
        }
        for (MethodDeclaration method : declaration.getMethods()) {
            if (method.isDefault() || method.isStatic() || !method.getParameters().isEmpty()) {
                continue;
            }
            List<String> path = new ArrayList<>(prefix);
            if (method.getAnnotationByName("WithParentName").isEmpty()) {
                path.add(method.getAnnotationByName("WithName").flatMap(ConfigMappingKeys::value)
                        .orElseGet(() -> kebab(method.getNameAsString())));
            }
            method.getAnnotationByName("WithDefault").flatMap(ConfigMappingKeys::value)
                    .ifPresent(value -> defaults.putIfAbsent(String.join(".", path), value));
            addType(method.getType(), path, interfaces, origin, keys, defaults, depth);
        }
    }

    private static void addType(Type type, List<String> path, Map<String, ClassOrInterfaceDeclaration> interfaces,
                                String origin, List<ConfigKey> keys, Map<String, String> defaults, int depth) {
        if (type instanceof ClassOrInterfaceType classType) {
            String name = classType.getNameAsString();
            List<Type> arguments = classType.getTypeArguments().map(List::copyOf).orElse(List.of());
            if (name.equals("Optional") && arguments.size() == 1) {
                addType(arguments.get(0), path, interfaces, origin, keys, defaults, depth);
                return;
            }
            if (name.equals("Map") && arguments.size() == 2) {
                Type value = arguments.get(1);
                boolean leaf = !(value instanceof ClassOrInterfaceType valueType)
                        || (!interfaces.containsKey(valueType.getNameAsString()) && !valueType.getNameAsString().equals("Map"));
                List<String> mapped = new ArrayList<>(path);
                // a map of plain values takes any key after the prefix, dots included (SmallRye keeps them)
                mapped.add(leaf ? ConfigKey.ANY_SEGMENTS : ConfigKey.ANY_SEGMENT);
                if (leaf) {
                    keys.add(new ConfigKey(mapped, origin));
                } else {
                    addType(value, mapped, interfaces, origin, keys, defaults, depth + 1);
                }
                return;
            }
            ClassOrInterfaceDeclaration nested = interfaces.get(name);
            if (nested != null) {
                walk(nested, path, interfaces, origin, keys, defaults, depth + 1);
                return;
            }
        }
        keys.add(new ConfigKey(path, origin));
    }

    private static Optional<String> attribute(AnnotationExpr annotation, String name) {
        if (annotation instanceof NormalAnnotationExpr normal) {
            return normal.getPairs().stream().filter(pair -> pair.getNameAsString().equals(name))
                    .map(MemberValuePair::getValue).findFirst().flatMap(ConfigMappingKeys::string);
        }
        if (annotation instanceof SingleMemberAnnotationExpr single && name.equals("value")) {
            return string(single.getMemberValue());
        }
        return Optional.empty();
    }

    private static Optional<String> value(AnnotationExpr annotation) {
        if (annotation instanceof SingleMemberAnnotationExpr single) {
            return string(single.getMemberValue());
        }
        return attribute(annotation, "value");
    }

    private static Optional<String> string(Expression expression) {
        return expression instanceof StringLiteralExpr literal ? Optional.of(literal.asString()) : Optional.empty();
    }

    /** SmallRye's default naming of a mapping method: {@code watcherInterval} is {@code watcher-interval}. */
    static String kebab(String methodName) {
        StringBuilder kebab = new StringBuilder();
        for (char c : methodName.toCharArray()) {
            if (Character.isUpperCase(c)) {
                kebab.append('-').append(Character.toLowerCase(c));
            } else {
                kebab.append(c);
            }
        }
        return kebab.toString();
    }

    // --- properties files

    private ConfigMappingKeys() {
    }
}
