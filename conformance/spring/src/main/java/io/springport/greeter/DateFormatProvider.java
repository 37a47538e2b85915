package io.springport.greeter;

import java.text.DateFormat;
import java.text.SimpleDateFormat;
import java.util.Locale;

import org.springframework.context.annotation.Profile;
import org.springframework.stereotype.Component;

/** The spec's date-format provider: one implementation for dev, one for !dev. */
public interface DateFormatProvider {

	DateFormat dateFormat();

	@Component("simpleDateFormat")
	@Profile("dev")
	class Simple implements DateFormatProvider {
		@Override
		public DateFormat dateFormat() {
			return DateFormat.getDateTimeInstance(DateFormat.SHORT, DateFormat.SHORT, Locale.US);
		}
	}

	@Component("isoDateFormat")
	@Profile("!dev")
	class Iso implements DateFormatProvider {
		@Override
		public DateFormat dateFormat() {
			return new SimpleDateFormat("yyyy-MM-dd'T'HH:mm:ss.SSSXXX");
		}
	}
}
