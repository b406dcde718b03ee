// Groups, identities, role bindings, repos and the other records of the Platform API v2.
package platform
