/**
 * Java's implicit `import java.lang.*;` (JLS 7.3): the public top-level types of `java.lang` (Java 21) that a simple type name
 * reaches when nothing nearer declares or imports it, and the members of those of them that code names as supertypes often
 * (each with Object's methods, which every interface declares implicitly, JLS 9.2). The tree-sitter linker uses them for
 * types outside the project: such a supertype may declare only the listed names, and an argument of such a type shows the
 * same type wherever no nearer declaration shadows its name.
 */
import type { TreeImport } from './types.js';

const OBJECT = ['equals', 'hashCode', 'toString', 'getClass', 'notify', 'notifyAll', 'wait', 'clone', 'finalize'];
const THROWABLE = [...OBJECT, 'getMessage', 'getLocalizedMessage', 'getCause', 'initCause', 'printStackTrace', 'fillInStackTrace',
  'getStackTrace', 'setStackTrace', 'addSuppressed', 'getSuppressed'];

/** Members (methods, member types) by simple type name, for the java.lang types whose whole member list is known here. */
const MEMBERS: ReadonlyMap<string, ReadonlySet<string>> = new Map([
  ['Object', OBJECT], ['Comparable', [...OBJECT, 'compareTo']], ['Runnable', [...OBJECT, 'run']],
  ['Iterable', [...OBJECT, 'iterator', 'forEach', 'spliterator']], ['AutoCloseable', [...OBJECT, 'close']], ['Cloneable', OBJECT],
  ['Appendable', [...OBJECT, 'append']], ['Readable', [...OBJECT, 'read']],
  ['CharSequence', [...OBJECT, 'length', 'charAt', 'isEmpty', 'subSequence', 'chars', 'codePoints', 'compare']],
  ['Number', [...OBJECT, 'intValue', 'longValue', 'floatValue', 'doubleValue', 'byteValue', 'shortValue']],
  ...['Throwable', 'Exception', 'RuntimeException', 'Error', 'IllegalStateException', 'IllegalArgumentException', 'UnsupportedOperationException']
    .map((name): [string, string[]] => [name, THROWABLE]),
].map(([name, members]) => [name as string, new Set(members as string[])]));

/** Public top-level types of java.lang (Java 21), by simple name. */
export const JAVA_LANG_TYPES: ReadonlySet<string> = new Set([
  ...MEMBERS.keys(), 'Boolean', 'Byte', 'Character', 'Class', 'ClassLoader', 'ClassValue', 'Compiler', 'Deprecated', 'Double', 'Enum', 'Float',
  'FunctionalInterface', 'InheritableThreadLocal', 'Integer', 'Long', 'Math', 'Module', 'ModuleLayer', 'Override', 'Package', 'Process',
  'ProcessBuilder', 'ProcessHandle', 'Record', 'Runtime', 'RuntimePermission', 'SafeVarargs', 'ScopedValue', 'SecurityManager', 'Short',
  'StackTraceElement', 'StackWalker', 'StrictMath', 'String', 'StringBuffer', 'StringBuilder', 'StringTemplate', 'SuppressWarnings', 'System',
  'Thread', 'ThreadGroup', 'ThreadLocal', 'Void', 'ArithmeticException', 'ArrayIndexOutOfBoundsException', 'ArrayStoreException',
  'ClassCastException', 'ClassNotFoundException', 'CloneNotSupportedException', 'EnumConstantNotPresentException', 'IllegalAccessException',
  'IllegalCallerException', 'IllegalMonitorStateException', 'IllegalThreadStateException', 'IndexOutOfBoundsException', 'InstantiationException',
  'InterruptedException', 'LayerInstantiationException', 'MatchException', 'NegativeArraySizeException', 'NoSuchFieldException',
  'NoSuchMethodException', 'NullPointerException', 'NumberFormatException', 'ReflectiveOperationException', 'SecurityException',
  'StringIndexOutOfBoundsException', 'TypeNotPresentException', 'WrongThreadException', 'AbstractMethodError', 'AssertionError',
  'BootstrapMethodError', 'ClassCircularityError', 'ClassFormatError', 'ExceptionInInitializerError', 'IllegalAccessError',
  'IncompatibleClassChangeError', 'InstantiationError', 'InternalError', 'LinkageError', 'NoClassDefFoundError', 'NoSuchFieldError',
  'NoSuchMethodError', 'OutOfMemoryError', 'StackOverflowError', 'ThreadDeath', 'UnknownError', 'UnsatisfiedLinkError',
  'UnsupportedClassVersionError', 'VerifyError', 'VirtualMachineError',
]);

/**
 * The java.lang type a type path written in a file names when no project type answered it (the linker found none by the
 * file's own, nested, same-package and imported types): `['X']` or `['java', 'lang', 'X']` for a public java.lang type `X`,
 * unless one of the file's `imports` names `X` by a single-type import (it then names that, outside the project). A
 * compiling file cannot also see an `X` through another on-demand import (that use would be ambiguous, JLS 6.4.1).
 * @returns the simple name `X`, or null.
 */
export function javaLangType(imports: readonly TreeImport[], path: readonly string[]): string | null {
  const name = path.length === 1 || path.slice(0, -1).join('.') === 'java.lang' ? path[path.length - 1] : undefined;
  if (name === undefined || !JAVA_LANG_TYPES.has(name)) return null;
  return path.length === 1 && imports.some((imp) => imp.static !== true && imp.spec.endsWith(`.${name}`)) ? null : name;
}

/** The members of java.lang type `name` when all are known here (Object's included); undefined otherwise. */
export function javaLangMembers(name: string): ReadonlySet<string> | undefined {
  return MEMBERS.get(name);
}

/** The project's `java/lang` files a bare type name sees by the implicit on-demand import (none for a file of java.lang itself). */
export function javaLangOpens(byPackage: ReadonlyMap<string, readonly string[]>, pkg: string): readonly string[] {
  return pkg === 'java.lang' ? [] : (byPackage.get('java.lang') ?? []);
}
