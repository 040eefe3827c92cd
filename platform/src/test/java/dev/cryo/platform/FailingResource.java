package dev.cryo.platform;

import dev.cryo.platform.error.CommonErrorCode;
import dev.cryo.platform.error.CryoException;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;

/** Throws each kind of error, to check how the REST layer answers. */
@Path("/api/v1/test-errors")
public class FailingResource {

    @GET
    @Path("{code}")
    public String fail(@PathParam("code") String code) {
        throw new CryoException(CommonErrorCode.valueOf(code), "Cannot do the thing: set cryo.thing.enabled=true");
    }
}
