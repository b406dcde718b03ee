/** The libraries the emulator's catalog holds: a few Java and Python artifacts with versions. */
export interface CatalogArtifact {
  uid: string;
  name: string;
  ecosystem: "ECOSYSTEM_JAVA" | "ECOSYSTEM_PYTHON";
  description: string;
  remediated: boolean;
  versions: string[];
}

export const CATALOG: CatalogArtifact[] = [
  {
    uid: "py-requests",
    name: "requests",
    ecosystem: "ECOSYSTEM_PYTHON",
    description: "HTTP for Humans",
    remediated: true,
    versions: ["2.31.0", "2.32.3"],
  },
  {
    uid: "py-numpy",
    name: "numpy",
    ecosystem: "ECOSYSTEM_PYTHON",
    description: "Array computing",
    remediated: false,
    versions: ["1.26.4", "2.1.3"],
  },
  {
    uid: "py-urllib3",
    name: "urllib3",
    ecosystem: "ECOSYSTEM_PYTHON",
    description: "HTTP client",
    remediated: true,
    versions: ["2.2.3"],
  },
  {
    uid: "java-guava",
    name: "com.google.guava:guava",
    ecosystem: "ECOSYSTEM_JAVA",
    description: "Google core libraries for Java",
    remediated: false,
    versions: ["32.1.3-jre", "33.3.1-jre"],
  },
  {
    uid: "java-jackson-databind",
    name: "com.fasterxml.jackson.core:jackson-databind",
    ecosystem: "ECOSYSTEM_JAVA",
    description: "General data-binding for Jackson",
    remediated: true,
    versions: ["2.17.2", "2.18.1"],
  },
];

export function findArtifact(ecosystem: string, name: string): CatalogArtifact | undefined {
  return CATALOG.find((a) => a.ecosystem === ecosystem && a.name.toLowerCase() === name.toLowerCase());
}
