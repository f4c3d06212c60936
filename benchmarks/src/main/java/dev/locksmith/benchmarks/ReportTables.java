package dev.locksmith.benchmarks;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalDouble;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads the tables of a {@code BENCHMARKS.md} that {@link MarkdownReport} wrote back into cells
 * named by their section, their row and their column, so that two runs can be set side by side.
 */
final class ReportTables {
    private static final Pattern LEADING_NUMBER = Pattern.compile("^[*\\s]*(-?[0-9][0-9,]*(?:\\.[0-9]+)?)");

    private ReportTables() {
    }

    /**
     * @return every cell of every table, keyed {@code "section | row | column"}, where the row is
     *         named by its leading cells up to its first numeric one (the scenario, and the ratio
     *         or the count it reports), in the order of the report
     */
    static Map<String, String> read(String report) {
        Map<String, String> cells = new LinkedHashMap<>();
        String section = "";
        List<String> header = null;
        for (String line : report.split("\n")) {
            if (line.startsWith("#")) {
                section = line.replaceFirst("^#+\\s*", "");
                header = null;
            } else if (!line.startsWith("|")) {
                header = null;
            } else if (header == null) {
                header = split(line);
            } else if (!line.startsWith("|---")) {
                List<String> row = split(line);
                int keyEnd = 1;
                while (keyEnd < row.size() && leadingNumber(row.get(keyEnd)).isEmpty() && !row.get(keyEnd).equals("--")) {
                    keyEnd++;
                }
                String rowName = String.join(" / ", row.subList(0, keyEnd));
                for (int column = keyEnd; column < Math.min(row.size(), header.size()); column++) {
                    cells.put(section + " | " + rowName + " | " + header.get(column), median(row.get(column)));
                }
            }
        }
        return cells;
    }

    /**
     * @return the number a cell starts with (bold or not, with thousands separators), if any
     */
    static OptionalDouble leadingNumber(String cell) {
        Matcher matcher = LEADING_NUMBER.matcher(cell);
        return matcher.find() ? OptionalDouble.of(Double.parseDouble(matcher.group(1).replace(",", ""))) : OptionalDouble.empty();
    }

    private static String median(String cell) {
        int repetitions = cell.indexOf(" (");
        return (repetitions < 0 ? cell : cell.substring(0, repetitions)).replace("**", "");
    }

    private static List<String> split(String line) {
        List<String> cells = new ArrayList<>();
        for (String cell : line.substring(1, line.lastIndexOf('|')).split("\\|", -1)) {
            cells.add(cell.trim());
        }
        return cells;
    }
}
