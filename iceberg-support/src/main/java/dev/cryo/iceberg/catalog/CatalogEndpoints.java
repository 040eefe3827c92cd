package dev.cryo.iceberg.catalog;

import org.apache.iceberg.CatalogProperties;
import org.apache.iceberg.CatalogUtil;
import org.apache.iceberg.aws.AwsClientProperties;
import software.amazon.awssdk.core.exception.SdkClientException;
import software.amazon.awssdk.regions.providers.DefaultAwsRegionProviderChain;

import java.util.Locale;
import java.util.Map;

/** The endpoint each kind of catalog cannot do without, checked before Iceberg builds it. */
final class CatalogEndpoints {

    /**
     * Rejects a Nessie, Hive or Glue catalog without an endpoint, naming the property to set. Iceberg
     * would fail unclearly or late: Nessie with "URI is not specified in the catalog properties"; Hive
     * only at the first call, when its client starts an embedded metastore whose classes Cryo does not
     * ship ({@code NoClassDefFoundError: javax/jdo/JDOException}); Glue with the AWS SDK's account of
     * its whole region chain. Glue's region is {@code client.region} or else, as for any AWS client, the
     * SDK's default chain: {@code aws.region}, {@code AWS_REGION}, the profile, EC2 instance metadata.
     */
    static void require(String name, Map<String, String> properties) {
        String type = properties.get(CatalogUtil.ICEBERG_CATALOG_TYPE);
        String impl = type == null ? properties.get(CatalogProperties.CATALOG_IMPL) : switch (type.toLowerCase(Locale.ROOT)) {
            case CatalogUtil.ICEBERG_CATALOG_TYPE_NESSIE -> CatalogUtil.ICEBERG_CATALOG_NESSIE;
            case CatalogUtil.ICEBERG_CATALOG_TYPE_HIVE -> CatalogUtil.ICEBERG_CATALOG_HIVE;
            case CatalogUtil.ICEBERG_CATALOG_TYPE_GLUE -> CatalogUtil.ICEBERG_CATALOG_GLUE;
            default -> type;
        };
        boolean noUri = properties.getOrDefault(CatalogProperties.URI, "").isBlank();
        if (CatalogUtil.ICEBERG_CATALOG_NESSIE.equals(impl) && noUri) {
            throw new IllegalArgumentException("Cannot configure catalog " + name
                    + ": set 'uri' to the Nessie server's REST API, e.g. http://nessie:19120/api/v2");
        }
        if (CatalogUtil.ICEBERG_CATALOG_HIVE.equals(impl) && noUri && !properties.containsKey("hadoop.hive.metastore.uris")) {
            throw new IllegalArgumentException("Cannot configure catalog " + name
                    + ": set 'uri' to the Hive Metastore's Thrift address, e.g. thrift://metastore:9083"
                    + " (without it the Hive client starts an embedded metastore, which Cryo does not ship)");
        }
        if (CatalogUtil.ICEBERG_CATALOG_GLUE.equals(impl)
                && properties.getOrDefault(AwsClientProperties.CLIENT_REGION, "").isBlank()) {
            try {
                new DefaultAwsRegionProviderChain().getRegion();
            } catch (SdkClientException e) {
                throw new IllegalArgumentException("Cannot configure catalog " + name
                        + ": no AWS region: set 'client.region' or AWS_REGION", e);
            }
        }
    }

    private CatalogEndpoints() {
    }
}
