import com.fasterxml.jackson.databind.*;
import com.networknt.schema.*;
public class Probe {
    static String chain(int levels) {
        StringBuilder defs = new StringBuilder();
        for (int i = 0; i < levels; i++) {
            defs.append("\"l").append(i).append("\":{\"anyOf\":[{\"$ref\":\"#/$defs/l").append(i + 1)
                    .append("\"},{\"$ref\":\"#/$defs/l").append(i + 1).append("\"}]},");
        }
        defs.append("\"l").append(levels).append("\":{\"type\":\"string\",\"minLength\":2}");
        return "{\"$defs\":{" + defs + "},\"type\":\"object\",\"properties\":{\"x\":{\"$ref\":\"#/$defs/l0\"}},"
                + "\"required\":[\"x\"]}";
    }
    public static void main(String[] a) throws Exception {
        int n = Integer.parseInt(a[0]);
        JsonNode node = new ObjectMapper().readTree(chain(n));
        long t = System.nanoTime();
        String loop = dev.rein.internal.schema.RefLoops.find(node);
        System.out.println("refloops " + (System.nanoTime()-t)/1e6 + " ms " + loop);
        t = System.nanoTime();
        JsonSchema s = dev.rein.internal.schema.LocalSchemaFactory.get().getSchema(dev.rein.internal.schema.DistinctBranches.of((com.fasterxml.jackson.databind.node.ObjectNode) node));
        System.out.println("getSchema " + (System.nanoTime()-t)/1e6 + " ms");
        t = System.nanoTime();
        s.initializeValidators();
        System.out.println("init " + (System.nanoTime()-t)/1e6 + " ms");
        t = System.nanoTime();
        System.out.println(s.validate(new ObjectMapper().readTree("{\"x\":\"o\"}")));
        System.out.println("validate " + (System.nanoTime()-t)/1e6 + " ms");
    }
}
